// What the playlist and plan pages use from offline: the "Keep offline" control for a playlist or plan.
export { KeepOffline } from './KeepOffline.tsx';
