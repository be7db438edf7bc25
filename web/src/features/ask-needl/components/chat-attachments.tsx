import { useEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { notify } from '../../../lib/notices';
import { allCompleted, canAttach, countRefusal, useAskUploader, type Attachment } from '../attachments';
import { AskNeedlChat } from '../chat-context';
import { useAskFlags } from '../hooks/use-ask-flags';
import { FOLDER_NOT_ALLOWED } from '../messages';
import { XIcon } from '../../../components/ui/icons';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
const hasFolder = (data: DataTransfer) =>
  Array.from(data.items ?? []).some((item) => typeof item.webkitGetAsEntry === 'function' && item.webkitGetAsEntry()?.isDirectory);
const UPLOAD_TOAST_MS = 3000;

function statusText(a: Attachment): string {
  switch (a.status) {
    case 'UPLOADING':
      return `Uploading ${a.progress}%`;
    case 'COMPLETED':
      return 'Ready';
    case 'FAILED':
    case 'PROCESSING_ERROR':
      return a.error ? `Processing failed: ${a.error}` : 'Processing failed';
    case 'UPLOADING_ERROR':
      return a.error ?? 'Upload failed';
    default:
      return 'Processing…';
  }
}

export interface ChatAttachments {
  /** Whether files may be dropped or picked now. */
  enabled: boolean;
  /** Whether sending waits for attachments to finish. */
  blocked: boolean;
  area: ReactNode;
  button: ReactNode;
  dropHandlers: {
    onDragEnter: (e: DragEvent) => void;
    onDragOver: (e: DragEvent) => void;
    onDragLeave: (e: DragEvent) => void;
    onDrop: (e: DragEvent) => void;
  };
  dragging: boolean;
}

/**
 * A conversation's attachments: drop files on the chat (it shows 'Drop files here') or pick
 * them with Attach; each shows its progress, then processing, then ready or its error. Files go
 * as upload source `ask_needl`; the spec's count limit counts those already attached; folders
 * are refused. Once all are ready their documents scope the questions. Without an uploader
 * (the app gave none) there is nothing to attach.
 */
export function useChatAttachments(): ChatAttachments | null {
  const uploader = useAskUploader();
  const chat = AskNeedlChat.useActorRef();
  const uploadIds = AskNeedlChat.useSelector((s) => s.context.uploadIds);
  const hasMessages = AskNeedlChat.useSelector((s) => s.context.messages.length > 0);
  const webSearch = AskNeedlChat.useSelector((s) => s.context.webSearch);
  const flags = useAskFlags();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  const attachments = useMemo(
    () => uploadIds.map((id) => uploader?.items.find((item) => item.id === id)).filter((a): a is Attachment => Boolean(a)),
    [uploadIds, uploader?.items],
  );
  const done = allCompleted(attachments);
  const deeplinks = attachments.map((a) => a.deeplink).filter((d): d is string => Boolean(d)).join(',');
  useEffect(() => {
    if (done) chat.send({ type: 'chat.setAttachments', ids: deeplinks ? deeplinks.split(',') : [] });
  }, [chat, done, deeplinks]);

  if (!uploader) return null;
  const enabled = canAttach({ uploadFlag: flags.loading ? undefined : flags.upload, webSearch, hasMessages, attachments });

  const add = (files: File[]) => {
    if (files.length === 0) return;
    const refusal = countRefusal(attachments.length, files.length, uploader.countLimit);
    if (refusal) return notify({ type: 'error', message: refusal, duration: UPLOAD_TOAST_MS });
    const ids = uploader.upload(files);
    if (ids.length > 0) chat.send({ type: 'chat.attach', uploadIds: ids });
  };
  const reset = () => {
    depth.current = 0;
    setDragging(false);
  };

  const dropHandlers = {
    onDragEnter: (e: DragEvent) => {
      if (!enabled || !carriesFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!enabled || !carriesFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      reset();
      if (!enabled) return;
      if (hasFolder(e.dataTransfer)) return notify({ type: 'error', message: FOLDER_NOT_ALLOWED, duration: UPLOAD_TOAST_MS });
      add(Array.from(e.dataTransfer.files ?? []));
    },
  };

  const button = (
    <>
      <button type="button" className="button button-quiet" disabled={!enabled} onClick={() => input.current?.click()}>
        Attach
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        data-testid="ask-attach-input"
        onChange={(event) => {
          add(Array.from(event.currentTarget.files ?? []));
          event.currentTarget.value = '';
        }}
      />
    </>
  );

  const area =
    attachments.length > 0 ? (
      <ul className="ask-attachments" aria-label="Attachments">
        {attachments.map((a) => (
          <li key={a.id} className="ask-attachment" data-status={a.status} data-testid="ask-attachment">
            <span className="ask-attachment-name" title={a.name}>
              {a.name}
            </span>
            <span className="small muted" role="status">
              {statusText(a)}
            </span>
            {!hasMessages && (
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${a.name}`}
                onClick={() => {
                  chat.send({ type: 'chat.detach', uploadId: a.id });
                  uploader.dismiss(a.id);
                }}
              >
                <XIcon size={18} />
              </button>
            )}
          </li>
        ))}
      </ul>
    ) : null;

  return { enabled, blocked: !done, area, button, dropHandlers, dragging };
}


