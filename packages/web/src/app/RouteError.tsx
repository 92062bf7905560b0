import { Card } from '../ui/index.ts';
import { usePageTitle } from '../ui/usePageTitle.ts';
import styles from './layout.module.css';

/** Router fallback when a page throws; a full reload of '/' is the way back. */
export function RouteError() {
  usePageTitle('Error');
  return (
    <main className={styles.routeError}>
      <Card>
        <h1>Unexpected Application Error!</h1>
        <p className="muted">Something broke while showing this page. Reloading usually helps.</p>
        <a className="btn btn-primary" href="/">
          Go Home
        </a>
      </Card>
    </main>
  );
}
