import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function PlansPage() {
  usePageTitle('Training Plans');
  return (
    <Card>
      <h1>Training Plans</h1>
    </Card>
  );
}
