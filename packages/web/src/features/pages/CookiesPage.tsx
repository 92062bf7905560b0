import { SESSION_COOKIE, SESSION_MARKER_COOKIE, type SiteSettings } from '@mesmer/shared/domain/site';
import { Link } from 'react-router';
import { ADS, ANALYTICS, CONTACT_EMAIL } from '../../lib/site.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { DocLayout, type DocSection } from './DocLayout.tsx';
import styles from './pages.module.css';

const COOKIES = [
  {
    name: SESSION_COOKIE,
    kind: 'Cookie (HttpOnly, SameSite=Lax)',
    purpose: 'Keeps you signed in. Page scripts cannot read it.',
    lifetime: 'Until you log out; 30 days at most by default',
  },
  {
    name: SESSION_MARKER_COOKIE,
    kind: 'Cookie',
    purpose:
      'A marker holding only your user id, no secret, so other open Mesmer tabs notice when you sign in or out.',
    lifetime: `Same as ${SESSION_COOKIE}`,
  },
  {
    name: 'light',
    kind: 'Local storage',
    purpose: 'Remembers whether you chose the light or the dark theme.',
    lifetime: 'Until you clear site data',
  },
  {
    name: 'ageConfirmed',
    kind: 'Local storage and cookie',
    purpose: 'Remembers that you confirmed you are 18 or older, so the question is asked only once.',
    lifetime: 'Until you clear site data',
  },
];

const origin = (url: string) => new URL(url).origin;

/** What this deployment switched on (AD_NETWORK_SCRIPT_URL, ANALYTICS_SCRIPT_URL), named by origin. */
export function ThirdParties({ ads, analytics }: Pick<SiteSettings, 'ads' | 'analytics'>) {
  if (!ads && !analytics) {
    return (
      <p>
        Mesmer sets no advertising or analytics cookies and loads nothing from other sites: no analytics,
        advertising or social-media pixels. If that ever changes, this page will list them.
      </p>
    );
  }
  return (
    <>
      <p>This site loads scripts from these other services, which may set their own cookies:</p>
      <ul>
        {ads && (
          <li>
            <strong>Advertising</strong> from <code>{origin(ads.scriptUrl)}</code>: one banner, loaded only
            once we know whether you are signed in. Supporters in an ad-free Patreon tier see no ads, and the
            ad network is never contacted for them.
          </li>
        )}
        {analytics && (
          <li>
            <strong>Analytics</strong> from <code>{origin(analytics.scriptUrl)}</code>: counts page visits so
            we can see which parts of the site are used.
          </li>
        )}
      </ul>
      <p>Blocking these scripts in your browser does not stop Mesmer from working.</p>
    </>
  );
}

const SECTIONS: DocSection[] = [
  {
    id: 'what-we-use',
    title: 'What we use',
    body: (
      <>
        <p>
          Mesmer itself uses a small number of cookies and browser storage entries, all of them needed for the
          site to work or to remember choices you made:
        </p>
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Purpose</th>
                <th scope="col">Kept</th>
              </tr>
            </thead>
            <tbody>
              {COOKIES.map((c) => (
                <tr key={c.name}>
                  <td data-label="Name">
                    <code>{c.name}</code>
                  </td>
                  <td data-label="Type">{c.kind}</td>
                  <td data-label="Purpose">{c.purpose}</td>
                  <td data-label="Kept">{c.lifetime}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          A few features keep small notes in local storage as you use them, for example which notices you
          dismissed or, once you link Patreon, the membership session used to unlock files. They never leave
          your browser except to reach Mesmer itself.
        </p>
      </>
    ),
  },
  {
    id: 'third-parties',
    title: 'Third parties',
    body: <ThirdParties ads={ADS} analytics={ANALYTICS} />,
  },
  {
    id: 'your-choices',
    title: 'Your choices',
    body: (
      <>
        <p>
          Because Mesmer's own entries are needed for the site to work or remember a choice you made, there is
          nothing to opt out of. You can still remove it all: log out to end your session, or clear this
          site's data in your browser settings. You will then be signed out and asked to confirm your age
          again.
        </p>
        <p>
          More about what we store is in the <Link to="/policy/privacy">Privacy Policy</Link>. Questions:{' '}
          <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
        </p>
      </>
    ),
  },
];

export default function CookiesPage() {
  usePageTitle('Cookie Policy');
  return (
    <DocLayout
      title="Cookie Policy"
      lead={
        <>
          <p>The cookies and browser storage Mesmer uses, and why.</p>
          <p className={styles.updated}>Last updated: November 2026</p>
        </>
      }
      sections={SECTIONS}
    />
  );
}
