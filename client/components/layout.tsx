/** The frame of every page: skip link, header, the routed page, footer. */
import { Outlet } from 'react-router';
import { Footer } from './footer.js';
import { Header } from './header.js';
import { NavigationEffects } from './navigation-effects.js';
import '../styles/global.css';

export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        跳到主要内容
      </a>
      <Header />
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <NavigationEffects />
    </>
  );
}
