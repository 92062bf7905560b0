import { Link } from 'react-router';

/** Router fallback when a page throws. */
export function RouteError() {
  return (
    <main style={{ padding: 32, textAlign: 'center' }}>
      <h1>Unexpected Application Error!</h1>
      <p className="muted">Something broke while showing this page. Reloading usually helps.</p>
      <Link className="btn btn-primary" to="/" reloadDocument>
        Go Home
      </Link>
    </main>
  );
}
