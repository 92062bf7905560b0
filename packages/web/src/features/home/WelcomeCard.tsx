import { Link } from 'react-router';
import { Card } from '../../ui/index.ts';
import styles from './home.module.css';

/** For visitors who are not signed in. */
export function WelcomeCard() {
  return (
    <Card className={styles.welcome}>
      <h2>Welcome to Mesmer</h2>
      <p>
        Listen to hypnosis sessions and music, follow training plans and build your own playlists. Create a
        free account to save playlists, rate and favourite them, and earn points as you listen.
      </p>
      <div className={styles.welcomeActions}>
        <Link className="btn btn-primary" to="/signup">
          Create Account
        </Link>
        <Link className="btn btn-ghost" to="/login">
          Log in
        </Link>
      </div>
    </Card>
  );
}
