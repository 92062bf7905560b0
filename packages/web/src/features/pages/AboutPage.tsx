import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { CONTACT_EMAIL, SITE_NAME, WIKI_URL } from '../../lib/site.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { DocLayout, type DocSection } from './DocLayout.tsx';
import styles from './pages.module.css';

const mail = <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>;

const SECTIONS: DocSection[] = [
  {
    id: 'hypnosis',
    title: 'Hypnosis',
    body: (
      <>
        <p>
          Hypnosis is a state of focused, relaxed attention. You stay aware and in control the whole time; you
          are simply more open to the words and images you choose to follow. Most people slip in and out of
          similar states every day, while reading a good book or driving a familiar road.
        </p>
        <p>
          Recreational hypnosis uses that state for enjoyment: deep relaxation, playful suggestions and
          <em> triggers</em>, short words or phrases that bring back a feeling from an earlier session. Like
          any skill it grows with practice, which is why many sessions build on each other.
        </p>
        <div className={styles.callout}>
          <ShieldCheck size={20} aria-hidden />
          <div>
            <p>
              <strong>Listen safely.</strong> Never listen while driving, operating machinery or anywhere you
              need your full attention. Only follow suggestions you are comfortable with; you can always open
              your eyes and stop. Hypnosis is not a substitute for medical or psychological care: if you live
              with epilepsy, a mental health condition or trauma, talk to a professional first.
            </p>
          </div>
        </div>
      </>
    ),
  },
  {
    id: 'web-app',
    title: 'The web app',
    body: (
      <>
        <p>Mesmer brings hypnosis-style audio together in one calm place:</p>
        <ul>
          <li>
            <strong>Files</strong> are single sessions, inductions, awakeners and loops from many creators.
          </li>
          <li>
            <strong>Playlists</strong> chain files into a complete session. Save your own, share them, and
            mark favourites.
          </li>
          <li>
            <strong>Triggers</strong> collect the files that train or use a trigger, so you can follow the
            ones you like.
          </li>
          <li>
            <strong>Training Plans</strong> are series of playlists to listen to day by day.
          </li>
          <li>
            <strong>Generate Playlist</strong> puts together a fresh session from your choices.
          </li>
          <li>
            <strong>Messages</strong>, <strong>friends</strong> and the <strong>leaderboard</strong> connect
            you with other listeners.
          </li>
        </ul>
        <p>Everything works in the browser on desktop and phone, in a light and a dark theme.</p>
      </>
    ),
  },
  {
    id: 'getting-started',
    title: 'How to start',
    body: (
      <ol>
        <li>
          <Link to="/signup">Create a free account</Link> and confirm your e-mail with the link we send you.
        </li>
        <li>
          Start with the <strong>Core Sessions</strong> on the <Link to="/">home page</Link>: they are ordered
          from beginner to expert.
        </li>
        <li>
          Find a quiet, comfortable spot, use headphones and give yourself time to wake up slowly afterwards.
        </li>
        <li>
          Explore <Link to="/files">Files</Link> and <Link to="/playlists">Playlists</Link>, or follow a{' '}
          <Link to="/plans">Training Plan</Link> once you know what you enjoy.
        </li>
      </ol>
    ),
  },
  {
    id: 'progress',
    title: 'Progress points',
    body: (
      <>
        <p>
          You earn <strong>1 point for every minute</strong> you listen while signed in. Points add up to
          levels, and listening on consecutive days builds a streak shown on your profile.
        </p>
        <p>The points needed for level n are:</p>
        <p>
          <span className={styles.formula}>(2n³ + 3n² + 301n) ÷ 6</span>
        </p>
        <p>
          So level 1 takes 51 points, level 2 takes 105 and level 10 takes 885. Each new level asks for n² +
          50 more points than the one before, so early levels come quickly and later ones reward steady
          listening. The progress bar on the home page shows how far you are towards the next level, and the{' '}
          <Link to="/leaderboard">leaderboard</Link> ranks everyone by points.
        </p>
      </>
    ),
  },
  {
    id: 'haptics',
    title: 'Haptics',
    body: (
      <>
        <p>
          Some files come with haptic cues: a timeline of vibration strengths written to match the audio. With
          a connected toy, Mesmer plays those cues in step with the session, so sensation follows the voice.
        </p>
        <p>
          Cues are scaled to the toy's strength steps and never go above your <strong>Max vibration</strong>.
          If the vibrations feel early or late, the <strong>Vibration offset</strong> shifts them by up to a
          second either way. Both live in the Haptics settings on your <Link to="/account">account page</Link>
          .
        </p>
      </>
    ),
  },
  {
    id: 'haptics-setup',
    title: 'Setting up haptics',
    body: (
      <>
        <p>
          Open your <Link to="/account">account page</Link>, go to <strong>Haptics</strong> and choose how
          your toy connects:
        </p>
        <ul>
          <li>
            <strong>Lovense:</strong> install the Lovense Remote app on your phone, pair your toy with it and
            keep the app open. Press <strong>Connect toy</strong> and scan the QR code it shows with Lovense
            Remote.
          </li>
          <li>
            <strong>Intiface Central:</strong> install Intiface Central on your computer or phone and start
            its server. Press <strong>Connect</strong>, then <strong>Scan</strong> to find your toy.
          </li>
        </ul>
        <p>
          Then play a file with haptics, and adjust Max vibration and Vibration offset until it feels right.
        </p>
      </>
    ),
  },
  {
    id: 'mobile',
    title: 'Installing on your phone',
    body: (
      <>
        <p>Mesmer runs in your phone's browser, and you can add it to your home screen like an app:</p>
        <ul>
          <li>
            <strong>iPhone and iPad (Safari):</strong> tap the Share button, then <em>Add to Home Screen</em>.
          </li>
          <li>
            <strong>Android (Chrome):</strong> open the ⋮ menu, then <em>Add to Home screen</em> or{' '}
            <em>Install app</em>.
          </li>
        </ul>
        <p>Lock-screen and headphone controls work while a session plays.</p>
      </>
    ),
  },
  {
    id: 'membership',
    title: 'Membership integration',
    body: (
      <>
        <p>
          Many creators share extra files with their supporters on Patreon. Linking your Patreon account on
          the account page lets Mesmer see which tiers you support, so those files unlock for you here too.
          Files you can't open yet show a lock and the tier they need; you can hide them with the{' '}
          <em>Hide locked files</em> setting.
        </p>
        <p>
          To link, open your <Link to="/account">account page</Link> and connect Patreon there. We only read
          your membership tiers, never your payment details.
        </p>
      </>
    ),
  },
  {
    id: 'uploading',
    title: 'Uploading files',
    body: (
      <>
        <p>
          Personal uploads are disabled. Files come from creators we work with, so every file has a clear
          author and the right permissions.
        </p>
        <p>
          Are you a creator and want your files on Mesmer? Uploading is by e-mail request only: write to{' '}
          {mail} with your creator name, where your work is published today and a link to a sample.
        </p>
      </>
    ),
  },
  {
    id: 'support',
    title: 'Support',
    body: (
      <>
        <p>
          Stuck or curious? The{' '}
          <a href={WIKI_URL} target="_blank" rel="noreferrer">
            wiki
          </a>{' '}
          explains triggers, training plans and common questions in more depth.
        </p>
        <p>
          If something does not work, tell us what you did, what you expected and what happened instead, plus
          your browser and device. A screenshot helps a lot.
        </p>
        <p>
          Run a Discord server? <a href="/discord/install">Add the {SITE_NAME} bot to Discord</a> to share
          files and playlists with your community.
        </p>
      </>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <>
        <p>
          For questions, creator requests, privacy matters or reports of content that breaks the rules: {mail}
          .
        </p>
        <p>We read every message and usually answer within a few days.</p>
      </>
    ),
  },
  {
    id: 'policies',
    title: 'Policies',
    body: (
      <ul>
        <li>
          <Link to="/policy/privacy">Privacy Policy</Link>: what we store about you, why, and your choices.
        </li>
        <li>
          <Link to="/policy/cookies">Cookie Policy</Link>: the cookies and browser storage Mesmer uses.
        </li>
      </ul>
    ),
  },
];

export default function AboutPage() {
  usePageTitle('About');
  return (
    <DocLayout
      title="About Mesmer"
      lead={
        <p>
          A calm home for hypnosis-style audio: what it is, how to begin, and how everything fits together.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
