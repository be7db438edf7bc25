import { useEditorState, type Editor } from '@tiptap/react';
import { useState, type FormEvent } from 'react';
import { isSafeHref, normaliseHref } from '../links';

interface ToolProps {
  label: string;
  active: boolean;
  onClick: () => void;
  children: string;
}

/** A formatting button; its name starts with what it shows (H1, 1. List), so it can be spoken as seen. */
function Tool({ label, active, onClick, children }: ToolProps) {
  // A press with the mouse or a finger leaves the focus (and the caret) in the text, so what is
  // typed next goes there at once; the editor would otherwise take the focus back a frame later.
  return (
    <button
      type="button"
      className="editor-tool"
      aria-label={label}
      aria-pressed={active}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** Asks for a link's address; an address the editor would not keep is refused here. */
function LinkForm({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const [href, setHref] = useState<string>(() => editor.getAttributes('link').href ?? '');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = normaliseHref(href);
    if (!target) {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
      onDone();
      return;
    }
    if (!isSafeHref(target)) {
      setError('Links go to web addresses (https://…)');
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: target, marks: [{ type: 'link', attrs: { href: target } }] }).run();
    } else {
      chain.setLink({ href: target }).run();
    }
    onDone();
  };
  return (
    <form className="editor-link-form" onSubmit={submit} aria-label="Link">
      <input
        className="input"
        aria-label="Link address"
        placeholder="https://…"
        value={href}
        onChange={(event) => setHref(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
        autoFocus
      />
      <button type="submit" className="button">
        {href.trim() ? 'Apply' : 'Remove link'}
      </button>
      {error && <p className="field-error">{error}</p>}
    </form>
  );
}

/** Headings, lists, quotes, links and the inline marks, each showing whether it applies here. */
export function EditorToolbar({ editor }: { editor: Editor }) {
  const [linking, setLinking] = useState(false);
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      bullets: e.isActive('bulletList'),
      numbers: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
    }),
  });
  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () =>
    command(editor.chain().focus()).run();
  return (
    <div className="editor-toolbar-wrap">
      <div className="editor-toolbar" role="toolbar" aria-label="Formatting">
        <Tool label="H1 heading" active={active.h1} onClick={run((c) => c.toggleHeading({ level: 1 }))}>H1</Tool>
        <Tool label="H2 heading" active={active.h2} onClick={run((c) => c.toggleHeading({ level: 2 }))}>H2</Tool>
        <Tool label="H3 heading" active={active.h3} onClick={run((c) => c.toggleHeading({ level: 3 }))}>H3</Tool>
        <Tool label="Bold" active={active.bold} onClick={run((c) => c.toggleBold())}>B</Tool>
        <Tool label="Italic" active={active.italic} onClick={run((c) => c.toggleItalic())}>I</Tool>
        <Tool label="Bullet list" active={active.bullets} onClick={run((c) => c.toggleBulletList())}>• List</Tool>
        <Tool label="1. List, numbered" active={active.numbers} onClick={run((c) => c.toggleOrderedList())}>1. List</Tool>
        <Tool label="Quote" active={active.quote} onClick={run((c) => c.toggleBlockquote())}>“ Quote</Tool>
        <Tool label="Link" active={active.link || linking} onClick={() => setLinking((open) => !open)}>Link</Tool>
      </div>
      {linking && <LinkForm editor={editor} onDone={() => setLinking(false)} />}
    </div>
  );
}
