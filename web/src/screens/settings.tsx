import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { currentKey, forgetKey } from '../auth/key';
import { CopyButton } from '../components/copy-button';
import { Loaded } from '../components/status';
import { setTheme, useTheme } from '../theme';

/** The account and how this browser keeps its key (the page the reference's plugins send users to). */
export function SettingsScreen() {
  const me = useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/v2/users/me')) });
  const [shown, setShown] = useState(false);
  const theme = useTheme();
  const key = currentKey() ?? '';
  return (
    <section className="page">
      <h1>Settings</h1>
      <h2>Account</h2>
      <Loaded query={me} what="your account">
        {(u) => (
          <dl className="facts">
            <dt>User</dt>
            <dd>{u.username}</dd>
            <dt>Role</dt>
            <dd>{u.role}</dd>
            <dt>User id</dt>
            <dd>{u.user_id}</dd>
          </dl>
        )}
      </Loaded>
      <h2>API key</h2>
      <p>
        This browser keeps your key in its local storage, for this site only, and sends it in the
        <code> Authorization</code> header of each request; the server stores only its hash. Signing out removes it from
        this browser. Disassembler plugins and SDKs take the same key. An administrator replaces a key with
        <code> binlens users rotate-key NAME</code> (the old one stops working at once) and revokes one with
        <code> binlens users revoke NAME</code>.
      </p>
      <p className="key-row">
        <code aria-label="Your API key">{shown ? key : '•'.repeat(Math.min(key.length, 32))}</code>
        <button type="button" onClick={() => setShown(!shown)}>
          {shown ? 'Hide' : 'Show'}
        </button>
        <CopyButton value={key} what="your API key" />
        <button type="button" onClick={forgetKey}>
          Sign out
        </button>
      </p>
      <h2>Appearance</h2>
      <label>
        Theme{' '}
        <select value={theme} onChange={(e) => setTheme(e.target.value as 'light' | 'dark')}>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
    </section>
  );
}
