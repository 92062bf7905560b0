// What other parts of the web app use from moderation: the Report button of profiles, files and
// playlists, and who sees the moderation queue.
export { ReportButton } from './ReportButton.tsx';
