import { useId, useRef, useState, type DragEvent } from 'react';
import { DROP_HINT, UPLOAD_BUTTON } from '../messages';
import { takeDropped, type DroppedEntries } from '../read-drop';

export interface DropZoneProps {
  /** The file input's `accept`: allowed extensions and mime types. */
  accept: string;
  disabled: boolean;
  onPick: (files: File[]) => void;
  onDrop: (dropped: DroppedEntries) => void;
  /** A line under the button: the limits. */
  hint?: string;
}

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

/**
 * Where files come in: drag them onto the zone, or press "Upload File(s)" (a real button, so
 * Enter and Space open the file picker too).
 */
export function DropZone({ accept, disabled, onPick, onDrop, hint }: DropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);
  const hintId = useId();

  const onDragEnter = (event: DragEvent) => {
    if (disabled || !carriesFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDragOver = (event: DragEvent) => {
    if (disabled || !carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDropFiles = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (!disabled) onDrop(takeDropped(event.dataTransfer));
  };

  return (
    <div
      className={`drop-zone${dragging ? ' drop-zone-active' : ''}`}
      data-testid="drop-zone"
      role="group"
      aria-label="Upload files"
      aria-describedby={hint ? hintId : undefined}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDropFiles}
    >
      <p className="drop-zone-text">{DROP_HINT}</p>
      <span className="small muted">or</span>
      <button type="button" className="button button-primary" disabled={disabled} onClick={() => input.current?.click()}>
        {UPLOAD_BUTTON}
      </button>
      {hint && (
        <p id={hintId} className="small muted drop-zone-hint">
          {hint}
        </p>
      )}
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={accept || undefined}
        aria-label="Files to upload"
        data-testid="upload-input"
        onChange={(event) => {
          onPick(Array.from(event.currentTarget.files ?? []));
          event.currentTarget.value = '';
        }}
      />
    </div>
  );
}
