// A chat-completions server over a local GGUF model (node-llama-cpp, on the CPU), for measuring
// what Needl does with a real model where no hosted one can be reached. Not part of the product
// and not run by the tests: `scripts/local-model/run` installs what it needs and starts it.
//
//   node server.mjs --model FILE.gguf [--name NAME] [--host 127.0.0.1] [--port 8089]
//                   [--context 8192] [--timeout 600] [--queue 4] [--threads CORES] [--modules DIR]
//
// It speaks what `assistant/src/openai.rs` sends: POST /v1/chat/completions with `model`,
// `messages`, `stream`, `temperature` (and `max_tokens`); streamed answers as server-sent chunks
// ending in `data: [DONE]`, others as one JSON completion; errors as `{"error": {"message"}}`.
// GET /v1/models names the model. Bounded: loopback only, request bodies up to
// LIMITS.bodyBytes, one answer at a time with at most `--queue` waiting (503 past that), each
// request ended after `--timeout` seconds from its arrival, and a client that goes away stops
// its answer.

import { createServer } from "node:http";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";

import { LIMITS, chunkEvent, completionBody, errorBody, isLoopback, readChatRequest } from "./request.mjs";

const { values: options } = parseArgs({
  options: {
    model: { type: "string", default: process.env.NEEDL_LOCAL_MODEL_GGUF },
    name: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "8089" },
    context: { type: "string", default: "8192" },
    timeout: { type: "string", default: "600" },
    queue: { type: "string", default: "4" },
    // More threads than cores makes llama.cpp's threads wait on each other: node-llama-cpp's
    // default took 4 on a 2-core machine and wrote a few tokens a minute beside a build.
    threads: { type: "string", default: String(availableParallelism()) },
    // The folder whose node_modules holds node-llama-cpp (the run script's cache).
    modules: { type: "string" },
  },
});

if (!options.model) {
  console.error("server.mjs: --model FILE.gguf is required");
  process.exit(2);
}
if (!isLoopback(options.host)) {
  console.error(`server.mjs: --host ${options.host} is not a loopback address; this server listens on loopback only`);
  process.exit(2);
}
const timeoutMs = Number(options.timeout) * 1000;
const maxWaiting = Number(options.queue);
const name = options.name ?? basename(options.model, ".gguf");

const entry = options.modules
  ? pathToFileURL(createRequire(join(options.modules, "package.json")).resolve("node-llama-cpp")).href
  : "node-llama-cpp";
const { getLlama, LlamaChat } = await import(entry);

const llama = await getLlama({ gpu: false, build: "never" });
const model = await llama.loadModel({ modelPath: options.model });
const context = await model.createContext({
  contextSize: Number(options.context),
  sequences: 1,
  threads: Number(options.threads),
});
console.log(`loaded ${options.model} as "${name}": context ${context.contextSize} tokens, ${context.currentThreads} threads`);

/** One answer at a time: the model has one sequence and the machine few cores. */
let tail = Promise.resolve();
let waiting = 0;

function history(messages) {
  const items = messages.map((m) =>
    m.role === "system"
      ? { type: "system", text: m.content }
      : m.role === "user"
        ? { type: "user", text: m.content }
        : { type: "model", response: [m.content] },
  );
  items.push({ type: "model", response: [] });
  return items;
}

const FINISH = { eogToken: "stop", stopGenerationTrigger: "stop", customStopTrigger: "stop", maxTokens: "length" };

/** Writes the answer to `request` on `res`, streamed or whole, within `signal`. */
async function answer(request, res, signal) {
  const meta = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: name };
  const chat = new LlamaChat({ contextSequence: context.getSequence(), autoDisposeSequence: true });
  const started = performance.now();
  let pieces = 0;
  try {
    if (request.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(chunkEvent(meta, { role: "assistant", content: "" }));
    }
    const result = await chat.generateResponse(history(request.messages), {
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      signal,
      stopOnAbortSignal: true,
      onTextChunk: (text) => {
        pieces += 1;
        if (request.stream) res.write(chunkEvent(meta, { content: text }));
      },
    });
    const reason = result.metadata.stopReason;
    if (reason === "abort") {
      throw new Error(signal.reason?.message ?? "the answer was stopped");
    }
    const finish = FINISH[reason] ?? "stop";
    if (request.stream) {
      res.write(chunkEvent(meta, {}, finish));
      res.end("data: [DONE]\n\n");
    } else {
      const usage = { completion_tokens: pieces };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(completionBody(meta, result.response, finish, usage)));
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`answered in ${seconds.toFixed(1)} s: ${pieces} pieces, ${finish}`);
  } catch (error) {
    const message = String(error?.message ?? error).slice(0, 300);
    console.error(`answer failed: ${message}`);
    if (res.headersSent) {
      // Mid-stream: the client reads an error chunk (assistant/src/openai.rs fails on it).
      if (!res.writableEnded) res.end(`data: ${JSON.stringify(errorBody(message, "server_error"))}\n\n`);
    } else {
      send(res, signal.aborted ? 504 : 500, errorBody(message, "server_error"));
    }
  } finally {
    chat.dispose();
  }
}

function send(res, status, body) {
  if (res.headersSent || res.writableEnded) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The request's body as JSON, or an error status and message. */
function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > LIMITS.bodyBytes) {
        // Read no further; the answer closes the connection.
        req.removeAllListeners("data");
        req.pause();
        resolve({ status: 413, message: `the body exceeds ${LIMITS.bodyBytes} bytes` });
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      try {
        resolve({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      } catch {
        resolve({ status: 400, message: "the body is not JSON" });
      }
    });
    req.on("error", () => resolve({ status: 400, message: "the body broke off" }));
  });
}

const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://localhost").pathname;
  if (req.method === "GET" && path === "/v1/models") {
    return send(res, 200, { object: "list", data: [{ id: name, object: "model", owned_by: "local" }] });
  }
  if (req.method === "GET" && path === "/healthz") return send(res, 200, { ok: true });
  if (path !== "/v1/chat/completions") return send(res, 404, errorBody(`no route ${path}`));
  if (req.method !== "POST") return send(res, 405, errorBody("use POST"));

  const { body, status, message } = await readBody(req);
  if (status === 413) {
    res.setHeader("connection", "close");
    send(res, status, errorBody(message));
    return res.on("finish", () => req.destroy());
  }
  if (status) return send(res, status, errorBody(message));
  const read = readChatRequest(body);
  if (!read.ok) return send(res, read.status, errorBody(read.message));
  if (waiting >= maxWaiting) return send(res, 503, errorBody("the model is busy; try again later", "server_error"));

  // The deadline runs from arrival, across the wait; a client that goes away stops its answer.
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`no answer within ${options.timeout} s`)),
    timeoutMs,
  );
  res.on("close", () => controller.abort(new Error("the client went away")));
  waiting += 1;
  const turn = tail.then(async () => {
    waiting -= 1;
    if (controller.signal.aborted) {
      return send(res, 504, errorBody(controller.signal.reason.message, "server_error"));
    }
    await answer(read.request, res, controller.signal);
  });
  tail = turn.catch(() => {});
  await turn.finally(() => clearTimeout(timer));
});
// Slow or stalled request bodies are cut off.
server.requestTimeout = 30_000;
server.headersTimeout = 10_000;

server.listen(Number(options.port), options.host, () => {
  const { address, port } = server.address();
  console.log(`chat completions at http://${address.includes(":") ? `[${address}]` : address}:${port}/v1`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
