/**
 * A hospital named anywhere on the site links to its page, and a doctor's 预约 is a call to the
 * doctor's own hospital (docs/product/booking.md). Both read the hospitals every page knows (the
 * layout's data), by the name the content gives: a name it does not know stays text, and a
 * doctor whose hospital it does not know is booked through the group's line.
 */
import { Link } from 'react-router';
import type { ExpertSummary } from '../../shared/contract/entities.js';
import { hospitalHref, telHref } from '../../shared/site/href.js';
import { orEmpty } from '../../shared/site/navigation.js';
import { useLayoutData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';

/** The hospital of that name, as the layout's data has it. */
function useHospital(name: string) {
  return orEmpty(useLayoutData()).hospitals.find((h) => h.name === name);
}

export function HospitalLink({ name, className }: { name: string; className?: string }) {
  const hospital = useHospital(name);
  if (!hospital)
    return (
      <span className={className}>
        <Typeset text={name} />
      </span>
    );
  return (
    <Link to={hospitalHref(hospital)} className={className}>
      <Typeset text={name} />
    </Link>
  );
}

/** 预约陈立衡医生：致电 021-5438-2004, a tel: link to the doctor's hospital; nothing when no phone is known. */
export function DoctorCall({ expert, className }: { expert: Pick<ExpertSummary, 'name' | 'hospital'>; className: string }) {
  const hospital = useHospital(expert.hospital);
  const { contact } = orEmpty(useLayoutData());
  const phone = hospital?.phone ?? contact?.booking?.phone ?? contact?.phone;
  if (!phone) return null;
  return (
    <a className={className} href={telHref(phone)}>
      <span className="call-who">预约{expert.name}医生：</span>
      <span className="call-how">
        致电 <span className="call-number">{phone}</span>
      </span>
    </a>
  );
}
