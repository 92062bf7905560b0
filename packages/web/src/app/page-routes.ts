/**
 * Every screen of the spec, one line each: its address and its page module (under src/, in its
 * feature folder). routes.tsx makes the router's routes of it; the build (build/page-preloads.ts) lists
 * each page's scripts and styles, which the server names in the page's HTML so they load with the app.
 */
export const pageRoutes: readonly { path: string; module: string }[] = [
  { path: '/', module: 'features/home/HomePage.tsx' },
  { path: '/login', module: 'features/auth/LoginPage.tsx' },
  { path: '/signup', module: 'features/auth/SignupPage.tsx' },
  { path: '/verify', module: 'features/auth/VerifyPage.tsx' },
  { path: '/reset_password', module: 'features/auth/ResetPasswordPage.tsx' },
  { path: '/account', module: 'features/account/AccountPage.tsx' },
  { path: '/patreon/oauth', module: 'features/patreon/PatreonOAuthPage.tsx' },
  { path: '/patreon/oauth/debug', module: 'features/patreon/PatreonOAuthDebugPage.tsx' },
  { path: '/about', module: 'features/pages/AboutPage.tsx' },
  { path: '/policy/privacy', module: 'features/pages/PrivacyPage.tsx' },
  { path: '/policy/cookies', module: 'features/pages/CookiesPage.tsx' },
  { path: '/files', module: 'features/files/FilesPage.tsx' },
  { path: '/file/:uuid', module: 'features/files/FilePage.tsx' },
  { path: '/download/:uuid', module: 'features/files/DownloadRedirect.tsx' },
  { path: '/music', module: 'features/music/MusicPage.tsx' },
  { path: '/playlists', module: 'features/playlists/PlaylistsPage.tsx' },
  { path: '/playlist/generate', module: 'features/generator/GeneratePage.tsx' },
  { path: '/playlist/:uuid', module: 'features/playlists/PlaylistPage.tsx' },
  { path: '/triggers', module: 'features/triggers/TriggersPage.tsx' },
  { path: '/trigger/:nameOrUuid', module: 'features/triggers/TriggerPage.tsx' },
  { path: '/plans', module: 'features/plans/PlansPage.tsx' },
  { path: '/plan/:uuid', module: 'features/plans/PlanPage.tsx' },
  { path: '/user/:username', module: 'features/users/UserPage.tsx' },
  { path: '/leaderboard', module: 'features/leaderboard/LeaderboardPage.tsx' },
  { path: '/messages', module: 'features/messages/MessagesPage.tsx' },
  { path: '/moderation', module: 'features/moderation/ModerationPage.tsx' },
  { path: '/insights', module: 'features/insights/CreatorInsightsPage.tsx' },
  { path: '/insights/creator/:id', module: 'features/insights/CreatorInsightsPage.tsx' },
  { path: '/insights/listening', module: 'features/insights/ListeningPage.tsx' },
  { path: '/insights/site', module: 'features/insights/SiteInsightsPage.tsx' },
  { path: '/404', module: 'features/pages/NotFoundPage.tsx' },
];
