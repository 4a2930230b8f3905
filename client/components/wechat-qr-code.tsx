import type { ContactUs } from '../../shared/contract/entities.js';
import { ContentImage, designSizes } from './content-image.js';

/** The WeChat official account's QR code, named for a screen reader by the account it opens; `phoneSize` where a phone draws it smaller. */
export function WechatQrCode({
  wechat,
  size,
  phoneSize = size,
}: {
  wechat: NonNullable<ContactUs['wechat']>;
  size: number;
  phoneSize?: number;
}) {
  return (
    <ContentImage
      image={wechat.image}
      sizes={designSizes(size, `${phoneSize}px`)}
      alt={`微信公众号“${wechat.account}”的二维码`}
      width={size}
      height={size}
    />
  );
}
