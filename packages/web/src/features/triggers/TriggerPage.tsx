import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function TriggerPage() {
  usePageTitle('Trigger');
  return (
    <Card>
      <h1>Trigger</h1>
    </Card>
  );
}
