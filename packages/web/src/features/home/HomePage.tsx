import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function HomePage() {
  usePageTitle('Home');
  return (
    <Card>
      <h1>Home</h1>
    </Card>
  );
}
