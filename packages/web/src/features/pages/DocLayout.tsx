import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'react-router';
import { Card } from '../../ui/index.ts';
import styles from './pages.module.css';

export interface DocSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** A long help or policy text: table of contents beside it, one hash anchor per section. */
export function DocLayout({
  title,
  lead,
  sections,
}: {
  title: string;
  lead: ReactNode;
  sections: DocSection[];
}) {
  const { hash } = useLocation();
  // The page loads after the browser looked for the anchor, so scroll to it once it exists.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);

  return (
    <div className={styles.doc}>
      <Card className={styles.toc}>
        <nav aria-label="Contents">
          <h2>Contents</h2>
          <ol>
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
      </Card>
      <Card className={styles.content}>
        <header className={styles.lead}>
          <h1>{title}</h1>
          {lead}
        </header>
        {sections.map((s) => (
          <section key={s.id} id={s.id} className={styles.section} aria-labelledby={`${s.id}-title`}>
            <h2 id={`${s.id}-title`}>{s.title}</h2>
            {s.body}
          </section>
        ))}
      </Card>
    </div>
  );
}
