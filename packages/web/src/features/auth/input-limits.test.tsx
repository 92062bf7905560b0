import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from '../../library/SearchControls.tsx';
import { renderWithProviders } from '../../test/testing.tsx';
import LoginPage from './LoginPage.tsx';
import ResetPasswordPage from './ResetPasswordPage.tsx';
import SignupPage from './SignupPage.tsx';

afterEach(() => vi.unstubAllGlobals());

/** The forms cannot send more than the API accepts: each input stops at the contract's bound. */
describe('input limits', () => {
  it('bounds the login form', () => {
    renderWithProviders(<LoginPage />);
    expect(screen.getByLabelText('Username')).toHaveAttribute('maxLength', String(TEXT_LIMITS.email));
    expect(screen.getByLabelText('Password')).toHaveAttribute('maxLength', String(TEXT_LIMITS.password));
  });

  it('bounds the sign-up form', () => {
    renderWithProviders(<SignupPage />);
    expect(screen.getByLabelText('Username')).toHaveAttribute('maxLength', String(TEXT_LIMITS.username));
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('maxLength', String(TEXT_LIMITS.email));
    expect(screen.getByLabelText('Password')).toHaveAttribute('maxLength', String(TEXT_LIMITS.password));
  });

  it('bounds the reset request form', () => {
    renderWithProviders(<ResetPasswordPage />);
    expect(screen.getByLabelText('Username')).toHaveAttribute('maxLength', String(TEXT_LIMITS.username));
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('maxLength', String(TEXT_LIMITS.email));
  });

  it('bounds the search box', () => {
    renderWithProviders(<SearchBox value="" onCommit={() => {}} label="Search files" placeholder="Search" />);
    expect(screen.getByRole('searchbox', { name: 'Search files' })).toHaveAttribute(
      'maxLength',
      String(TEXT_LIMITS.search),
    );
  });
});
