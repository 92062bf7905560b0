import type { PatreonStatus } from '@mesmer/shared/api/patreon';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { PATREON_SECTION_ID } from '../../lib/site.ts';
import { Card, Spinner, toast } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { useFinishPatreonLink } from './api.ts';
import styles from './patreon.module.css';

const ACCOUNT_SECTION = `/account#${PATREON_SECTION_ID}`;

type Outcome = { ok: true; status: PatreonStatus } | { ok: false; error: string; status?: number };

/**
 * /patreon/oauth: where Patreon sends the browser back with `code` and `state`, showing 'Linking
 * account...' meanwhile. Sends them to the server once, says how it went in a toast and goes to the
 * account page; reached without a code, it says linking failed and goes to / without asking the server
 * (the spec). With `debug` (/patreon/oauth/debug) it stays and shows the raw answer instead.
 */
export function PatreonOAuthCallback({ debug = false }: { debug?: boolean }) {
  usePageTitle('Patreon');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const finish = useFinishPatreonLink();
  const { mutate } = finish;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The code is single-use: send it once, even when effects run twice (StrictMode).
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const done = (result: Outcome, next = ACCOUNT_SECTION) => {
      setOutcome(result);
      if (result.ok) toast('success', 'Account linked!', 'Your Patreon account is now linked.');
      else toast('error', 'Linking failed.', 'Please try again.');
      if (!debug) navigate(next, { replace: true });
    };
    if (!code) {
      done({ ok: false, error: params.get('error') ?? 'Patreon sent no code back.' }, '/');
      return;
    }
    if (!state) {
      done({ ok: false, error: 'Patreon sent no state back.' });
      return;
    }
    mutate(
      { authCode: code, state },
      {
        onSuccess: (status) => done({ ok: true, status }),
        onError: (err) =>
          done({
            ok: false,
            error: err instanceof ApiError ? err.message : String(err),
            status: err instanceof ApiError ? err.status : undefined,
          }),
      },
    );
  }, [params, mutate, navigate, debug]);

  if (!debug || !outcome) {
    return (
      <div className={styles.linking}>
        <Spinner label="Linking your Patreon account" />
        <p>Linking account...</p>
      </div>
    );
  }
  return (
    <Card className={styles.card}>
      <h1>Patreon link (debug)</h1>
      <p>{outcome.ok ? 'Account linked!' : 'Linking failed.'}</p>
      <figure className={styles.figure}>
        <figcaption>Raw result</figcaption>
        <pre className={styles.result}>
          {JSON.stringify(
            { query: Object.fromEntries([...params].filter(([k]) => k !== 'code')), result: outcome },
            null,
            2,
          )}
        </pre>
      </figure>
      <Link to={ACCOUNT_SECTION} className="btn btn-primary">
        Go to your account
      </Link>
    </Card>
  );
}

export default function PatreonOAuthPage() {
  return <PatreonOAuthCallback />;
}
