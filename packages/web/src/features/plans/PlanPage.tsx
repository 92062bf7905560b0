import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function PlanPage() {
  usePageTitle('Training Plan');
  return (
    <Card>
      <h1>Training Plan</h1>
    </Card>
  );
}
