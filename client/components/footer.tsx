/**
 * The site footer (docs/product/header-and-footer.md): the group's phone, address and hours,
 * section links, the WeChat account's QR code, copyright and the site's ICP and public-security
 * filings, all from the content API; and the way to the 无障碍说明 page.
 */
import { Link } from 'react-router';
import { href, telHref } from '../../shared/site/href.js';
import { footerColumns, orEmpty } from '../../shared/site/navigation.js';
import { useLayoutData } from '../router-hooks.js';
import { Address } from './address.js';
import { FactList } from './fact-list.js';
import { MapLink } from './map-link.js';
import { useMeasurer } from '../placeholders/measurer.js';
import { WechatQrCode } from './wechat-qr-code.js';

/** A link to another site, opened beside this one. */
const EXTERNAL = { target: '_blank', rel: 'noopener noreferrer' } as const;

export const DISCLAIMER = '本网站内容仅供参考，具体诊疗请遵医嘱。';
export const ACCESS = '无障碍说明';

export function Footer() {
  const layout = orEmpty(useLayoutData());
  const { contact, intro } = layout;
  const groupName = contact?.groupName ?? intro?.name;
  const columns = footerColumns(layout);
  const filings = contact?.filings;
  const wechat = contact?.wechat;
  const measurer = useMeasurer();

  return (
    // The server's counts, kept as it wrote them when the browser hydrates (measurer.ts).
    <footer className="site-footer" style={measurer?.footer(contact, intro, groupName, columns)} suppressHydrationWarning>
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
                [
                  '集团地址',
                  <>
                    <Address text={contact.address} />
                    {contact.mapUrl ? <MapLink href={contact.mapUrl} place="集团地址" /> : null}
                  </>,
                ],
                ['服务时间', <span className="keep-words">{contact.hours}</span>],
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
        {wechat ? (
          <div className="footer-wechat" id="site-wechat">
            <WechatQrCode wechat={wechat} size={160} phoneSize={112} />
            <p className="footer-wechat-name">微信公众号：{wechat.account}</p>
            <p className="footer-wechat-note">{wechat.note}</p>
            <p className="wechat-hint">长按识别二维码</p>
          </div>
        ) : null}
      </div>
      <div className="footer-bottom">
        <div className="container">
          <p>© 2004-2024 {groupName ? `${groupName} ` : ''}版权所有</p>
          <p>
            <Link className="footer-access" to={href('accessibility')}>
              {ACCESS}
            </Link>
          </p>
          {filings ? (
            <p className="footer-filings">
              <a href={filings.icpUrl} {...EXTERNAL}>
                {filings.icp}
              </a>
              <a href={filings.publicSecurityUrl} {...EXTERNAL}>
                <img src="/media/brand/police-badge.svg" alt="" width={20} height={20} loading="lazy" decoding="async" />
                {filings.publicSecurity}
              </a>
            </p>
          ) : null}
          <p className="footer-note">{DISCLAIMER}</p>
        </div>
      </div>
    </footer>
  );
}
