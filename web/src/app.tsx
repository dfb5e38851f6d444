// Layout and routes. Paths follow the reference portal's, which the disassembler plugins open:
// /analyses/{id} (with ?view=functions&fn={function id}), /function/{id}, /settings.
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { useApiKey } from './auth/key';
import { UserMenu } from './auth/user-menu';
import { AnalysesScreen } from './screens/analyses/list';
import { AnalysisScreen } from './screens/analysis/page';
import { CollectionScreen } from './screens/collections/collection';
import { CollectionsScreen } from './screens/collections/list';
import { FirmwareScreen } from './screens/firmware/task';
import { FunctionScreen } from './screens/function/page';
import { SearchScreen } from './screens/search';
import { SettingsScreen } from './screens/settings';
import { SignInScreen } from './screens/sign-in';

const NAV = [
  ['/analyses', 'Analyses'],
  ['/collections', 'Collections'],
  ['/search', 'Search'],
] as const;

export function App() {
  const key = useApiKey();
  const [location] = useLocation();
  if (!key && location !== '/sign-in') return <Redirect to={`/sign-in?next=${encodeURIComponent(location)}`} />;
  if (!key) return <SignInScreen />;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/analyses" className="brand">
          Binlens
        </Link>
        <nav aria-label="Main">
          {NAV.map(([href, label]) => (
            <Link key={href} href={href} className={location.startsWith(href) ? 'active' : ''}>
              {label}
            </Link>
          ))}
        </nav>
        <UserMenu />
      </header>
      <main id="main">
        <Switch>
          <Route path="/">
            <Redirect to="/analyses" />
          </Route>
          <Route path="/sign-in">
            <Redirect to="/analyses" />
          </Route>
          <Route path="/analyses" component={AnalysesScreen} />
          <Route path="/analyses/:id">{(p) => <AnalysisScreen id={Number(p.id)} />}</Route>
          <Route path="/function/:id">{(p) => <FunctionScreen id={Number(p.id)} />}</Route>
          <Route path="/collections" component={CollectionsScreen} />
          <Route path="/collections/:id">{(p) => <CollectionScreen id={Number(p.id)} />}</Route>
          <Route path="/search" component={SearchScreen} />
          <Route path="/firmware/:task">{(p) => <FirmwareScreen task={p.task} />}</Route>
          <Route path="/settings" component={SettingsScreen} />
          <Route>
            <section className="page">
              <h1>Not found</h1>
              <p>
                No page here. <Link href="/analyses">Back to the analyses</Link>.
              </p>
            </section>
          </Route>
        </Switch>
      </main>
    </>
  );
}
