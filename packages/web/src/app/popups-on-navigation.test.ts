import { act } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { popupStack } from '../ui/index.ts';
import { clearPopupsOnNavigation } from './popups-on-navigation.ts';

afterEach(() => act(() => popupStack.clear()));

describe('clearPopupsOnNavigation', () => {
  const router = () =>
    createMemoryRouter(
      [
        { path: '/', element: null },
        { path: '/other', element: null },
      ],
      { initialEntries: ['/'] },
    );

  it('clears the popup stack when the path changes', async () => {
    const r = router();
    const stop = clearPopupsOnNavigation(r);
    popupStack.push();
    popupStack.push();
    await r.navigate('/other');
    expect(popupStack.level()).toBe(0);
    expect(document.body.style.overflow).toBe('');
    stop();
  });

  it('keeps popups when only the query or hash changes', async () => {
    const r = router();
    const stop = clearPopupsOnNavigation(r);
    popupStack.push();
    await r.navigate('/?thread=3');
    await r.navigate('/#top');
    expect(popupStack.level()).toBe(1);
    stop();
  });
});
