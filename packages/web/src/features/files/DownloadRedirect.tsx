import { Navigate } from 'react-router';

/** /download/{uuid}: the server answers this path itself; reaching the web app means no such file. */
export default function DownloadRedirect() {
  return <Navigate to="/404" replace />;
}
