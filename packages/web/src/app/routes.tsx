import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Layout } from './Layout.tsx';
import { RouteError } from './RouteError.tsx';

const page = (load: () => Promise<{ default: React.ComponentType }>) => {
  const Component = lazy(load);
  return <Component />;
};

/** Every screen of the spec, one line each; pages live in their feature folders. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: page(() => import('../features/home/HomePage.tsx')) },
      { path: '/login', element: page(() => import('../features/auth/LoginPage.tsx')) },
      { path: '/signup', element: page(() => import('../features/auth/SignupPage.tsx')) },
      { path: '/verify', element: page(() => import('../features/auth/VerifyPage.tsx')) },
      { path: '/reset_password', element: page(() => import('../features/auth/ResetPasswordPage.tsx')) },
      { path: '/account', element: page(() => import('../features/account/AccountPage.tsx')) },
      { path: '/patreon/oauth', element: page(() => import('../features/patreon/PatreonOAuthPage.tsx')) },
      {
        path: '/patreon/oauth/debug',
        element: page(() => import('../features/patreon/PatreonOAuthDebugPage.tsx')),
      },
      { path: '/about', element: page(() => import('../features/pages/AboutPage.tsx')) },
      { path: '/policy/privacy', element: page(() => import('../features/pages/PrivacyPage.tsx')) },
      { path: '/policy/cookies', element: page(() => import('../features/pages/CookiesPage.tsx')) },
      { path: '/files', element: page(() => import('../features/files/FilesPage.tsx')) },
      { path: '/file/:uuid', element: page(() => import('../features/files/FilePage.tsx')) },
      { path: '/download/:uuid', element: page(() => import('../features/files/DownloadRedirect.tsx')) },
      { path: '/music', element: page(() => import('../features/music/MusicPage.tsx')) },
      { path: '/playlists', element: page(() => import('../features/playlists/PlaylistsPage.tsx')) },
      { path: '/playlist/generate', element: page(() => import('../features/generator/GeneratePage.tsx')) },
      { path: '/playlist/:uuid', element: page(() => import('../features/playlists/PlaylistPage.tsx')) },
      { path: '/triggers', element: page(() => import('../features/triggers/TriggersPage.tsx')) },
      { path: '/trigger/:nameOrUuid', element: page(() => import('../features/triggers/TriggerPage.tsx')) },
      { path: '/plans', element: page(() => import('../features/plans/PlansPage.tsx')) },
      { path: '/plan/:uuid', element: page(() => import('../features/plans/PlanPage.tsx')) },
      { path: '/user/:username', element: page(() => import('../features/users/UserPage.tsx')) },
      { path: '/leaderboard', element: page(() => import('../features/leaderboard/LeaderboardPage.tsx')) },
      { path: '/messages', element: page(() => import('../features/messages/MessagesPage.tsx')) },
      { path: '/moderation', element: page(() => import('../features/moderation/ModerationPage.tsx')) },
      { path: '/404', element: page(() => import('../features/pages/NotFoundPage.tsx')) },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];
