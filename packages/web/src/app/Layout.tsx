import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useCurrentUser } from '../api/auth.ts';
import { useSessionSync } from '../api/session-sync.ts';
import { Ads } from '../features/ads/index.ts';
import { PlayerBar } from '../player/PlayerBar.tsx';
import type { PlayerTrack } from '../player/types.ts';
import { LoadingState, ToastViewport } from '../ui/index.ts';
import { AgeGate } from './AgeGate.tsx';
import { useAgeConfirmed } from './age-gate.ts';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import styles from './layout.module.css';
import { usePlayerServices } from './player-services.ts';

/** The player's Script panel: a library widget the player cannot import itself (decision 017). */
const ScriptView = lazy(() => import('../library/ScriptView.tsx').then((m) => ({ default: m.ScriptView })));
const renderScript = (track: PlayerTrack) => (
  <Suspense fallback={<LoadingState label="Loading script" />}>
    <ScriptView file={track} />
  </Suspense>
);

/** Hands a connected toy to the player; loaded only for signed-in listeners (the toy code is not small). */
const HapticsConnection = lazy(() =>
  import('../library/toys/index.ts').then((m) => ({ default: m.HapticsConnection })),
);

export function Layout() {
  useSessionSync();
  const { user } = useCurrentUser();
  const ageConfirmed = useAgeConfirmed();
  const playerServices = usePlayerServices();

  return (
    <>
      <div className={styles.shell} inert={!ageConfirmed}>
        <a href="#main" className={styles.skip}>
          Skip to content
        </a>
        <Header />
        <main id="main" className={styles.main}>
          {/* Nothing of the library shows, or loads, before a visitor confirms they are an adult. */}
          {ageConfirmed && (
            <Suspense fallback={<LoadingState />}>
              <Outlet />
            </Suspense>
          )}
        </main>
        <Ads />
        <Footer />
        <PlayerBar services={playerServices} renderScript={renderScript} />
        {user && (
          <Suspense fallback={null}>
            <HapticsConnection />
          </Suspense>
        )}
        <ToastViewport />
      </div>
      {!ageConfirmed && <AgeGate />}
    </>
  );
}
