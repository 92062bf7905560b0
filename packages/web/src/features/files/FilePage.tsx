import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function FilePage() {
  usePageTitle('File');
  return (
    <Card>
      <h1>File</h1>
    </Card>
  );
}
