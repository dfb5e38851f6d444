import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../api/client';
import { setTheme, useTheme } from '../theme';
import { forgetKey } from './key';

/** Who is signed in, with the theme switch, the settings and signing out. */
export function UserMenu() {
  const theme = useTheme();
  const me = useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/v2/users/me')) });
  return (
    <details className="user-menu">
      <summary title="User menu">{me.data?.username ?? '…'}</summary>
      <div role="menu">
        <button role="menuitem" type="button" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
          {theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
        <Link role="menuitem" href="/settings">
          Settings
        </Link>
        <button role="menuitem" type="button" onClick={forgetKey}>
          Sign out
        </button>
      </div>
    </details>
  );
}
