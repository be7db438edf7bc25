/**
 * A real IMAP server for a test: Debian's Dovecot (`dovecot-imapd`, which `scripts/setup --test`
 * installs) started in the foreground on a free port of 127.0.0.1, with its own configuration,
 * accounts and maildirs in a temporary directory. Plain IMAP on loopback, passwords from a file.
 * It is set up as the Rust tests' `testkit::imap::Dovecot` sets it up. Where Dovecot is not
 * installed the test is skipped with a message; under `CI=true` it fails instead.
 */
import { test } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Dovecot's master program. */
const DOVECOT = '/usr/sbin/dovecot';
/** Its local delivery agent. */
const DELIVER = '/usr/lib/dovecot/dovecot-lda';

export interface MailUser {
  name: string;
  password: string;
}

export interface Dovecot {
  /** The IMAP port on 127.0.0.1. */
  port: number;
  /**
   * Delivers `message` (RFC 5322) into `user`'s `folder` (created when missing) through
   * Dovecot's own delivery agent, as a mail server hands mail over.
   */
  deliver: (user: string, folder: string, message: string) => void;
  /** Dovecot's log so far, for a failing test's message. */
  log: () => string;
  /** Stops Dovecot (SIGTERM, so the master stops its processes) and removes its directory. */
  stop: () => Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

/** Returns a port of 127.0.0.1 nothing listens on just now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Returns Dovecot's configuration: everything under `root`, the IMAP listener on `port`. */
function config(root: string, port: number, owner: string): string {
  const homes = join(root, 'home');
  const internal = isRoot() ? 'dovecot' : owner;
  const login = isRoot() ? 'dovenull' : owner;
  return `protocols = imap
listen = 127.0.0.1
base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
default_internal_user = ${internal}
default_login_user = ${login}
mail_location = maildir:~/Maildir
lda_mailbox_autocreate = yes
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${root}/users
}
userdb {
  driver = static
  args = uid=${owner} gid=${owner} home=${homes}/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service stats {
  unix_listener stats-writer {
    mode = 0666
  }
}
`;
}

/**
 * Starts Dovecot with the accounts `users` and waits (at most fifteen seconds) until it accepts
 * connections. Call it inside a test or hook: without Dovecot, it skips the test.
 */
export async function startDovecot(users: MailUser[]): Promise<Dovecot> {
  if (!existsSync(DOVECOT)) {
    const why = 'Dovecot is not installed (scripts/setup --test installs dovecot-imapd)';
    if (process.env.CI === 'true') throw new Error(why);
    // Skipped, not failed, only off CI: a developer's machine without Dovecot still runs the rest
    // of the suite; CI (above) installs it and fails when it is missing.
    test.skip(true, why); // reason: no Dovecot on a developer's machine; skipped off CI only, CI throws above
  }
  const root = mkdtempSync(join(tmpdir(), 'needl-dovecot-'));
  const port = await freePort();
  // Mail is never read as root: as root, the mailboxes belong to the package's `dovecot` user;
  // otherwise to whoever runs the tests.
  const owner = isRoot() ? 'dovecot' : userInfo().username;
  const homes = join(root, 'home');
  mkdirSync(homes);
  if (isRoot()) {
    const chown = spawnSync('chown', ['-R', `${owner}:${owner}`, homes]);
    if (chown.status !== 0) throw new Error(`chown ${homes}: ${chown.stderr}`);
    // The temporary directory itself is private to root; Dovecot's user must pass through.
    chmodSync(root, 0o755);
  }
  writeFileSync(join(root, 'users'), users.map((u) => `${u.name}:{PLAIN}${u.password}::::::\n`).join(''));
  const conf = join(root, 'dovecot.conf');
  writeFileSync(conf, config(root, port, owner));

  const log = () => {
    try {
      return readFileSync(join(root, 'dovecot.log'), 'utf8');
    } catch {
      return '';
    }
  };
  let stderr = '';
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // The master takes about a second to stop its processes; killed sooner, it leaves them behind.
      const gone = await Promise.race([exited.then(() => true), delay(5_000).then(() => false)]);
      if (!gone) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(root, { recursive: true, force: true });
  };

  for (let i = 0; i < 150; i += 1) {
    if (child.exitCode !== null) break;
    if (await accepts(port)) {
      return {
        port,
        log,
        stop,
        deliver: (user, folder, message) => {
          const lda = spawnSync(DELIVER, ['-c', conf, '-d', user, '-m', folder], { input: message });
          if (lda.status !== 0) throw new Error(`dovecot-lda: ${lda.stderr.toString()}`);
        },
      };
    }
    await delay(100);
  }
  const why = `dovecot did not start: ${stderr}${log()}`;
  await stop();
  throw new Error(why);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Returns a plain-text message as a mail server would hand it over (CRLF line ends). */
export function mailMessage({
  from,
  to,
  subject,
  body,
  id,
  date = new Date(),
}: {
  from: string;
  to: string;
  subject: string;
  body: string;
  /** The Message-ID, without the angle brackets. */
  id: string;
  date?: Date;
}): string {
  return [
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${subject}`,
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${id}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ].join('\r\n');
}
