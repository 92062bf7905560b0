// What other parts of the web app may use from offline: the "Keep offline" control for a playlist or plan.
export { KeepOffline } from './KeepOffline.tsx';
