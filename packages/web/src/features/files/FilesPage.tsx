import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function FilesPage() {
  usePageTitle('Files');
  return (
    <Card>
      <h1>Files</h1>
    </Card>
  );
}
