// What other parts of the web app may use from playlists: the list query and the add/create popups.
export { AddToPlaylist } from './AddToPlaylist.tsx';
export { type PlaylistsParams, playlistsQuery } from './api.ts';
export { CreatePlaylistPopup } from './CreatePlaylistPopup.tsx';
