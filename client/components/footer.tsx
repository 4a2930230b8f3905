/** The site footer (docs/product/header-and-footer.md): section links, the group's address and phone, copyright. */
import { Link } from 'react-router';
import { telHref } from '../href.js';
import { footerColumns, orEmpty } from '../navigation.js';
import { useLayoutData } from '../router-hooks.js';
import { FactList } from './fact-list.js';

export function Footer() {
  const layout = orEmpty(useLayoutData());
  const { contact, intro } = layout;
  const groupName = contact?.groupName ?? intro?.name;
  const columns = footerColumns(layout);

  return (
    <footer className="site-footer">
      <div className="container footer-main">
        <div className="footer-brand">
          {groupName ? <p className="footer-name">{groupName}</p> : null}
          {intro?.slogan ? <p className="footer-slogan">{intro.slogan}</p> : null}
          {contact ? (
            <FactList
              className="footer-contact"
              facts={[
                [
                  '咨询电话',
                  <a className="footer-phone" href={telHref(contact.phone)}>
                    {contact.phone}
                  </a>,
                ],
                ['集团地址', contact.address],
                ['服务时间', contact.hours],
              ]}
            />
          ) : null}
        </div>
        <nav className="footer-nav" aria-label="页脚导航">
          {columns.map((col) => (
            <div className="footer-col" key={col.title}>
              <p className="footer-col-title">{col.title}</p>
              <ul>
                {col.links.map((l) => (
                  <li key={l.label}>
                    <Link to={l.to}>{l.label}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="footer-bottom">
        <div className="container">
          <p>© 2004-2024 {groupName ? `${groupName} ` : ''}版权所有</p>
          <p className="footer-note">本网站内容仅供参考，具体诊疗请遵医嘱。</p>
        </div>
      </div>
    </footer>
  );
}
