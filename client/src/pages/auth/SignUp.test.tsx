// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorFromBody } from '../../lib/serverError';
import { loadLocaleAreas } from '../../providers/i18n';

const register = vi.fn();
vi.mock('../../providers/auth', () => ({ authProvider: { register: (p: unknown) => register(p) } }));

const { SignUp } = await import('./SignUp');

beforeAll(() => loadLocaleAreas(['errors']));

function fillAndSubmit() {
  render(
    <MemoryRouter initialEntries={['/signup']}>
      <SignUp />
    </MemoryRouter>,
  );
  const fill = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  fill('First Name', 'Nadia');
  fill('Last Name', 'Putri');
  fill('Email', 'nadia@demo.test');
  fill(/^Password$/, 'pendek');
  fill('Confirm Password', 'pendek');
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
}

afterEach(() => {
  cleanup();
  register.mockReset();
});

describe('sign-up server errors', () => {
  it('shows a field error only under its field, not again in the alert', async () => {
    const body = { msg: 'Password must be at least 8 characters.', code: 'password_too_short', errors: { password: 'Password must be at least 8 characters.' } };
    register.mockResolvedValue({ success: false, error: errorFromBody(body, 422, 'x') });
    fillAndSubmit();
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    const [alert] = screen.getAllByRole('alert');
    expect(alert!.textContent).toBe('Password minimal 8 karakter.');
    expect(alert!.id).toBe('signup-password-error');
    expect(screen.queryByTestId('signup-error')).toBeNull();
  });

  it('shows an error without a field in the alert', async () => {
    register.mockResolvedValue({ success: false, error: errorFromBody({ msg: 'Internal server error', code: 'internal' }, 500, 'x') });
    fillAndSubmit();
    await waitFor(() => expect(screen.getByTestId('signup-error').textContent).toContain('Internal server error'));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
