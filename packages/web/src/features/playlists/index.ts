// What the app shell composes from playlists: the add/create popups.
export { AddToPlaylist } from './AddToPlaylist.tsx';
export { CreatePlaylistPopup } from './CreatePlaylistPopup.tsx';
