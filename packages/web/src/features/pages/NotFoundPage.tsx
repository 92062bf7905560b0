import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function NotFoundPage() {
  usePageTitle('Not Found');
  return (
    <Card>
      <h1>Not Found</h1>
    </Card>
  );
}
