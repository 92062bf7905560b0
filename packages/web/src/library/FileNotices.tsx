import type { AudioFile } from '@mesmer/shared/api/files';
import { initialFileNotice, requiredTier } from '@mesmer/shared/domain/library-display';
import { Link } from 'react-router';
import { Accordion, type AccordionItem } from './Collapsible.tsx';
import styles from './library.module.css';

/** 'This file …' / 'This playlist has one or more files that …', the warnings, then the risk line. */
export function WarningsText({ subject, warnings }: { subject: 'file' | 'playlist'; warnings: string[] }) {
  return (
    <div className={styles.warningText}>
      <p>
        {subject === 'file'
          ? 'This file carries a warning:'
          : 'This playlist has one or more files that carry a warning:'}
      </p>
      <ul className={styles.warningList}>
        {warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      <p className={styles.risk}>Listen at your own risk!</p>
    </div>
  );
}

/** Which membership tier unlocks a locked file, and how to get it. */
function PaidTierNotice({ file }: { file: AudioFile }) {
  const tier = requiredTier(file.patreonTiers);
  const creator = file.author.patreonName ?? file.author.username;
  return (
    <div>
      <p>
        This file is exclusive to {creator}’s Patreon supporters
        {tier ? (
          <>
            {' '}
            in the <strong>{tier.name}</strong> tier or higher
          </>
        ) : null}
        .
      </p>
      <p className="muted">
        Already a supporter? Link your Patreon account on the <Link to="/account">Account page</Link> to
        listen.
      </p>
    </div>
  );
}

type Notice = 'locked' | 'warnings' | 'description';

/**
 * The file's notices as accordions, only one open at a time: the paid-tier notice
 * first if the file is locked, else the warnings if any, else the description.
 */
export function FileNotices({ file }: { file: AudioFile }) {
  const items: AccordionItem<Notice>[] = [];
  if (file.isLocked) {
    items.push({ id: 'locked', title: 'Paid tier', tone: 'accent', content: <PaidTierNotice file={file} /> });
  }
  if (file.warnings.length > 0) {
    items.push({
      id: 'warnings',
      title: 'Warnings',
      tone: 'warning',
      content: <WarningsText subject="file" warnings={file.warnings.map((w) => w.text)} />,
    });
  }
  items.push({
    id: 'description',
    title: 'Description',
    content: file.description ? (
      <p className={styles.prewrap}>{file.description}</p>
    ) : (
      <p className="muted">No description.</p>
    ),
  });
  return <Accordion items={items} initialOpen={initialFileNotice(file)} />;
}
