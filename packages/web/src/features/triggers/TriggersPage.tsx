import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function TriggersPage() {
  usePageTitle('Triggers');
  return (
    <Card>
      <h1>Triggers</h1>
    </Card>
  );
}
