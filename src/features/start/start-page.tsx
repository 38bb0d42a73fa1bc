import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { logOut } from '../../lib/log-out.ts';
import { primaryRole } from '../../lib/roles.ts';
import { session } from '../../stores/session.ts';
import { featureGrid, mainActionByRole, startStrings as s, welcomeByRole } from './strings.ts';

export default function StartPage() {
  const heading = usePageHeading('Start page');
  const snap = useSnapshot(session);
  const [, navigate] = useLocation();
  const role = snap.loggedIn ? (primaryRole(snap.roles) ?? 'default') : null;
  const text = role
    ? welcomeByRole[role]
    : { welcome: s.signedOutWelcome, description: s.signedOutDescription };

  return (
    <section className="page start-page">
      <header className="hero">
        <h1 ref={heading} tabIndex={-1}>
          {s.title}
        </h1>
        <p className="hero-welcome">{text.welcome}</p>
        <p className="muted">{text.description}</p>
      </header>
      {role ? (
        <section className="card" aria-labelledby="quick-actions">
          <h2 id="quick-actions">{s.quickActions}</h2>
          <div className="actions">
            <Link href={mainActionByRole[role].href} className="btn btn-primary">
              {mainActionByRole[role].label}
            </Link>
            {role === 'operator' && (
              <Link href="/analysis" className="btn btn-secondary">
                {s.recentInspections}
              </Link>
            )}
            {(role === 'lc_manager' || role === 'factory_manager') && (
              <Link href="/floorplans" className="btn btn-secondary">
                {s.areaManagement}
              </Link>
            )}
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => {
                logOut();
                navigate('/');
              }}
            >
              {s.signOut}
            </button>
          </div>
        </section>
      ) : (
        <>
          <section className="card ready" aria-labelledby="ready">
            <h2 id="ready">{s.readyTitle}</h2>
            <p>{s.readyText}</p>
          </section>
          <section aria-labelledby="features">
            <h2 id="features">{s.features}</h2>
            <ul className="feature-grid">
              {featureGrid.map((feature) => (
                <li key={feature.name} className="card">
                  <h3>{feature.name}</h3>
                  <p className="muted">{feature.text}</p>
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </section>
  );
}
