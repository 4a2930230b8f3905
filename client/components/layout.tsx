/** The frame of every page: skip link, header, the tablet's large-text prompt, the routed page, footer. */
import { Outlet } from 'react-router';
import { Footer } from './footer.js';
import { Header } from './header.js';
import { NavigationEffects } from './navigation-effects.js';
import { TextSizePrompt } from './text-size-prompt.js';
import '../styles/global.css';
import '../styles/contrast.css';
import '../styles/large-cursor.css';
import '../styles/forced-colors.css';

export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        跳到主要内容
      </a>
      <Header />
      <main id="main" className="site-main" tabIndex={-1}>
        <TextSizePrompt />
        <Outlet />
      </main>
      <Footer />
      <NavigationEffects />
    </>
  );
}
