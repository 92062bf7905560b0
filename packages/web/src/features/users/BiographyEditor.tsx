import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { Bold, Italic, Link } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Modal, Tooltip } from '../../ui/index.ts';
import styles from './ProfileEditor.module.css';

/** A link target as typed: kept when it names http(s) or mailto, else read as a web address. */
function linkTarget(url: string): string {
  const trimmed = url.trim();
  return /^(https?:|mailto:)/i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/+/, '')}`;
}

/**
 * The biography's markdown editor: Bold and Italic wrap the selection, Link opens the Insert URL
 * popup (URL and Text) and puts `[Text](URL)` where the cursor was.
 */
export function BiographyEditor({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const ids = { url: useId(), text: useId(), bio: useId() };
  const [linkAt, setLinkAt] = useState<{ start: number; end: number } | null>(null);
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');

  const selection = () => ({
    start: ref.current?.selectionStart ?? value.length,
    end: ref.current?.selectionEnd ?? value.length,
  });
  const replace = (start: number, end: number, insert: string, cursor: number) => {
    onChange(value.slice(0, start) + insert + value.slice(end));
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(cursor, cursor);
    });
  };
  const wrap = (mark: string, placeholder: string) => {
    const { start, end } = selection();
    const inner = value.slice(start, end) || placeholder;
    replace(start, end, `${mark}${inner}${mark}`, start + mark.length + inner.length + mark.length);
  };
  const openLink = () => {
    const at = selection();
    setUrl('');
    setText(value.slice(at.start, at.end));
    setLinkAt(at);
  };
  const insertLink = (e: FormEvent) => {
    e.preventDefault();
    if (!linkAt || !url.trim()) return;
    const target = linkTarget(url);
    const link = `[${text.trim() || target}](${target})`;
    setLinkAt(null);
    replace(linkAt.start, linkAt.end, link, linkAt.start + link.length);
  };

  return (
    <div className={styles.editor}>
      <div className={styles.toolbar} role="toolbar" aria-label="Formatting">
        <Tooltip content="Bold">
          <button
            type="button"
            className="icon-btn"
            aria-label="Bold"
            onClick={() => wrap('**', 'bold text')}
          >
            <Bold size={18} aria-hidden />
          </button>
        </Tooltip>
        <Tooltip content="Italic">
          <button
            type="button"
            className="icon-btn"
            aria-label="Italic"
            onClick={() => wrap('*', 'italic text')}
          >
            <Italic size={18} aria-hidden />
          </button>
        </Tooltip>
        <Tooltip content="Insert a link">
          <button type="button" className="icon-btn" aria-label="Link" onClick={openLink}>
            <Link size={18} aria-hidden />
          </button>
        </Tooltip>
      </div>
      <label htmlFor={ids.bio} className="visually-hidden">
        Biography
      </label>
      <textarea
        ref={ref}
        id={ids.bio}
        className={`input ${styles.textarea}`}
        rows={8}
        value={value}
        maxLength={TEXT_LIMITS.biography}
        placeholder="Tell others about yourself. Markdown is supported: **bold**, *italic*, [links](https://…)."
        onChange={(e) => onChange(e.target.value)}
      />

      <Modal open={linkAt !== null} title="Insert URL" onClose={() => setLinkAt(null)} width={420}>
        <form onSubmit={insertLink}>
          <div className="field">
            <label htmlFor={ids.url}>URL</label>
            <input
              id={ids.url}
              className="input"
              inputMode="url"
              value={url}
              required
              placeholder="https://"
              onChange={(e) => setUrl(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.text}>Text</label>
            <input id={ids.text} className="input" value={text} onChange={(e) => setText(e.target.value)} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={!url.trim()}>
            Insert
          </button>
        </form>
      </Modal>
    </div>
  );
}
