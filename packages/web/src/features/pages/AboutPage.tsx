import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function AboutPage() {
  usePageTitle('About');
  return (
    <Card>
      <h1>About</h1>
    </Card>
  );
}
