import { MIN_LISTENERS, RAW_SESSION_RETENTION_DAYS } from '@mesmer/shared/domain/insights';
import { Link } from 'react-router';
import { CONTACT_EMAIL } from '../../lib/site.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { DocLayout, type DocSection } from './DocLayout.tsx';
import styles from './pages.module.css';

const mail = <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>;

const SECTIONS: DocSection[] = [
  {
    id: 'summary',
    title: 'In short',
    body: (
      <ul>
        <li>We keep what Mesmer needs to run your account and your listening progress, and nothing more.</li>
        <li>We do not sell your data and we do not share it for advertising.</li>
        <li>Mesmer uses no third-party tracking by default.</li>
        <li>You can ask us for a copy of your data, or to delete it, at any time.</li>
      </ul>
    ),
  },
  {
    id: 'what-we-store',
    title: 'What we store',
    body: (
      <>
        <h3>Your account</h3>
        <p>
          Your username, e-mail address, whether it is verified, your time zone, and your password as a salted
          argon2id hash (we never see or store the password itself). If you add them: a profile picture, a
          biography and the triggers you list on your profile. Your settings, such as censoring trigger words,
          hiding locked files and your haptics preferences.
        </p>
        <h3>Listening stats</h3>
        <p>
          While you are signed in, we record listening sessions (which file, when, and for how long) to award
          points, keep your streak and levels, rank the leaderboard and remember your place in training plans.
          Public play counts of files are totals that do not identify you.
        </p>
        <h3>Insights</h3>
        <p>
          A session also records which parts of the file were played, where the play started (a playlist, a
          training plan, the generator, a file page, a shared link or an offline copy), whether a toy was
          connected and, for files locked to a membership tier, the tier you held. These details are added to
          totals per file and day as the session ends. Creators see only those totals for their own files,
          never who listened, and nothing at all for a file, a chart or a breakdown with fewer than{' '}
          {MIN_LISTENERS} distinct listeners. You can opt out of being counted in creators' insights in your
          settings; your plays still count in public play counts, and your own "Your listening" page stays
          yours.
        </p>
        <h3>What you create and share</h3>
        <p>
          Playlists, ratings, favourites, friends, messages, blocks and reports. Messages are stored so the
          people in a conversation can read them; moderators may read a conversation only when it is reported.
        </p>
        <h3>Linked services</h3>
        <p>
          If you link Patreon, we store your Patreon name, your membership tiers and the access tokens needed
          to check them. If you connect a haptic toy, we store the connection token for that service. We never
          receive payment details.
        </p>
        <h3>Technical data</h3>
        <p>
          Our server keeps short-lived logs (time, address, page requested, errors) to keep the service secure
          and working. Session details are covered in the <Link to="/policy/cookies">Cookie Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'why',
    title: 'Why we use it',
    body: (
      <ul>
        <li>To run your account: sign-in, e-mail verification and password resets.</li>
        <li>
          To provide the features you use: playlists, progress, messages, haptics and membership unlocks.
        </li>
        <li>To keep Mesmer safe: preventing abuse, handling reports, and fixing problems.</li>
        <li>To answer you when you contact us.</li>
      </ul>
    ),
  },
  {
    id: 'sharing',
    title: 'Who sees it',
    body: (
      <>
        <p>
          Your username, profile picture, biography, public playlists, points and role badges are public. Your
          e-mail address, settings, listening history and messages are not.
        </p>
        <p>
          We share data only with services that run Mesmer for us (hosting and e-mail delivery), with Patreon
          or your toy's service when you link them yourself, or when the law requires it. Mesmer uses no
          third-party analytics, tracking or advertising by default; if that ever changes, this page will say
          so first.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <p>
        Account data stays while your account exists. Sessions end when you log out or after they expire. The
        detail of each listening session (the parts played, where the play started, toy and tier) is cleared{' '}
        {RAW_SESSION_RETENTION_DAYS} days after the session; only the totals built from it stay. Server logs
        are kept for a short time only. When you delete your account, we remove your personal data; messages
        you sent may stay visible to the other people in that conversation without your name attached.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Passwords are hashed with argon2id. Your session lives in a cookie that page scripts cannot read, only
        a fingerprint of it is stored on our side, and e-mail links work once and expire. No system is
        perfect; if you find a weakness, please tell us at {mail}.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your choices and rights',
    body: (
      <ul>
        <li>See and change most of your data yourself on your account page.</li>
        <li>Ask us for a copy of everything we hold about you.</li>
        <li>Ask us to correct or delete your data, or to delete your account.</li>
        <li>Unlink Patreon or your toy at any time.</li>
      </ul>
    ),
  },
  {
    id: 'age',
    title: 'Adults only',
    body: (
      <p>
        Mesmer is for people aged 18 and over. We do not knowingly collect data from anyone younger; if you
        believe a minor has an account, tell us and we will remove it.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions or requests about your data: {mail}. We answer within 30 days, usually much sooner. If we
        change this policy in a way that matters, we will tell you on the site before it applies.
      </p>
    ),
  },
];

export default function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <DocLayout
      title="Privacy Policy"
      lead={
        <>
          <p>What Mesmer stores about you, why, and the choices you have.</p>
          <p className={styles.updated}>Last updated: November 2026</p>
        </>
      }
      sections={SECTIONS}
    />
  );
}
