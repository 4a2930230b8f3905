/** 联系我们: the group's contact details and every branch's address and phone. */
import { telHref } from '../href.js';
import { FactList } from '../components/fact-list.js';
import { ListBlock } from '../components/list-block.js';
import { PageBanner } from '../components/page-banner.js';
import { usePageData } from '../router-hooks.js';
import '../styles/hospitals.css';

export default function ContactPage() {
  const contact = usePageData<'contact'>();
  return (
    <>
      <PageBanner />
      <div className="page-body soft">
        <div className="container">
          <section className="card contact-main" aria-labelledby="contact-title">
            <div className="contact-intro">
              <p className="eyebrow">联系方式</p>
              <h2 id="contact-title">{contact.groupName}</h2>
              <p className="contact-phone-label">全国咨询热线</p>
              <a className="contact-phone" href={telHref(contact.phone)}>
                {contact.phone}
              </a>
            </div>
            <FactList
              className="contact-facts"
              facts={[
                ['集团地址', contact.address],
                ['邮政编码', contact.postcode],
                ['电子邮箱', <a href={`mailto:${contact.email}`}>{contact.email}</a>],
                ['服务时间', contact.hours],
              ]}
            />
          </section>
          {contact.branches.length > 0 ? (
            <section className="branches" aria-labelledby="branches-title">
              <ListBlock title="各院区联系方式" titleId="branches-title" aside={`共 ${contact.branches.length} 家`} empty={false}>
                <ul className="branch-grid grid4">
                  {contact.branches.map((b) => (
                    <li key={b.name} className="card branch-card">
                      <h3>{b.name}</h3>
                      <p className="branch-address">{b.address}</p>
                      <a className="branch-phone" href={telHref(b.phone)}>
                        {b.phone}
                      </a>
                    </li>
                  ))}
                </ul>
              </ListBlock>
            </section>
          ) : null}
        </div>
      </div>
    </>
  );
}
