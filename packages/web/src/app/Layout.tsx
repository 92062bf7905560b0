import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PlayerBar } from '../player/PlayerBar.tsx';
import { LoadingState, popupStack, ToastViewport } from '../ui/index.ts';
import { Header } from './Header.tsx';
import styles from './layout.module.css';

export function Layout() {
  const location = useLocation();
  // A new page starts with no popup open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation
  useEffect(() => {
    popupStack.clear();
  }, [location.pathname]);

  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <Header />
      <main id="main" className={styles.main}>
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </main>
      <PlayerBar />
      <ToastViewport />
    </div>
  );
}
