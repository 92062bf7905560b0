import type { AudioFile } from '@mesmer/shared/api/files';
import { useQuery } from '@tanstack/react-query';
import { Copy, ScrollText } from 'lucide-react';
import { useRef } from 'react';
import { scriptQuery } from '../api/files.ts';
import { Spinner, toast } from '../ui/index.ts';
import styles from './ScriptView.module.css';
import { useCensor } from './useCensor.ts';

type ScriptFile = Pick<AudioFile, 'id' | 'name' | 'scriptURL' | 'triggers'>;

/**
 * A file's script, read from its scriptURL: plain text at a reading width in a box that scrolls on
 * its own (focusable, so keys scroll it), with a copy button. Nothing at all when the file has no
 * script (a locked file has none for its viewer) or the script fails to load.
 */
export function ScriptView({
  file,
  heading: Heading,
  className,
}: {
  file: ScriptFile;
  /** A 'Script' heading at this level; without one the host's title names it. */
  heading?: 'h2' | 'h3';
  /** Placement on the host page. */
  className?: string;
}) {
  const censor = useCensor();
  const script = useQuery(scriptQuery(file));
  const textRef = useRef<HTMLElement>(null);

  if (!file.scriptURL || script.isError) return null;
  const triggerNames = file.triggers.map((t) => t.name);
  const name = censor.text(file.name, triggerNames);
  const text = script.data === undefined ? null : censor.text(script.data, triggerNames);

  return (
    <div className={className ? `${styles.script} ${className}` : styles.script}>
      <div className={styles.header}>
        {Heading && (
          <Heading className={styles.heading}>
            <ScrollText size={18} aria-hidden /> Script
          </Heading>
        )}
        {text !== null && text.trim() !== '' && (
          <button
            type="button"
            className={`btn btn-ghost btn-small ${styles.copy}`}
            onClick={() => copyScript(text, textRef.current)}
          >
            <Copy size={16} aria-hidden /> Copy script
          </button>
        )}
      </div>
      {text === null ? (
        <Spinner size={20} label="Loading script" />
      ) : text.trim() === '' ? (
        <p className="muted">This script is empty.</p>
      ) : (
        // A box that scrolls on its own, focusable so keys scroll it (data-own-keys: not the player's).
        <section
          ref={textRef}
          className={styles.text}
          aria-label={`Script of ${name}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so the keyboard can scroll the script
          tabIndex={0}
          data-own-keys
        >
          {text}
        </section>
      )}
    </div>
  );
}

/**
 * Copies through the Clipboard API; where that is missing or refused (plain http, older browsers),
 * selects the text and tries the old copy command, else leaves it selected for the keyboard.
 */
async function copyScript(text: string, box: HTMLElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast('success', 'Copied', 'The script was copied to your clipboard.');
    return;
  } catch {
    // Fall through to the selection.
  }
  const selection = window.getSelection();
  if (box && selection) {
    selection.selectAllChildren(box);
    if (typeof document.execCommand === 'function' && document.execCommand('copy')) {
      toast('success', 'Copied', 'The script was copied to your clipboard.');
      return;
    }
    toast('info', 'Copy the selected script', 'Your browser did not allow copying: press Ctrl+C (⌘C) now.');
    return;
  }
  toast('error', 'Could not copy the script.');
}
