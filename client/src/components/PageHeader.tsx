/**
 * The page header `@refinedev/antd`'s `<List>`, `<Create>`, `<Edit>` and `<Show>` draw their title, back
 * button and header buttons with. vite.config.ts points `@ant-design/pro-layout` here: pro-layout's
 * PageHeader brought @ant-design/pro-provider (about 17 KB gzip of tokens and styles), antd's Breadcrumb and
 * Avatar into every console screen, for a title row. This renders the same DOM (the `ant-page-header` classes)
 * with the same spacing, taken from antd's theme so the dark theme follows; what Refine never passes (an
 * avatar, a breadcrumb given as `{ items }`) is not drawn. The console's screens have no breadcrumb (the
 * pages pass `breadcrumb={false}`), so a breadcrumb element Refine passes is rendered as given.
 */
import { ConfigProvider, Space, theme } from 'antd';
import { isValidElement, useContext, type CSSProperties, type MouseEvent, type ReactNode } from 'react';

export interface PageHeaderProps {
  backIcon?: ReactNode;
  prefixCls?: string;
  title?: ReactNode;
  subTitle?: ReactNode;
  style?: CSSProperties;
  breadcrumb?: unknown;
  breadcrumbRender?: (props: PageHeaderProps, defaultDom: ReactNode) => ReactNode;
  tags?: ReactNode;
  footer?: ReactNode;
  extra?: ReactNode;
  onBack?: (e?: MouseEvent<HTMLElement>) => void;
  className?: string;
  ghost?: boolean;
  children?: ReactNode;
}

const ellipsis: CSSProperties = { overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' };

export function PageHeader(props: PageHeaderProps) {
  const { getPrefixCls, direction } = useContext(ConfigProvider.ConfigContext);
  const { token } = theme.useToken();
  const { title, subTitle, tags, extra, onBack, backIcon, footer, children, ghost = true } = props;
  const cls = getPrefixCls('page-header', props.prefixCls);
  const rtl = direction === 'rtl';
  const breadcrumb = isValidElement(props.breadcrumb) ? props.breadcrumb : null;
  const breadcrumbDom = props.breadcrumbRender ? props.breadcrumbRender({ ...props, prefixCls: cls }, null) : breadcrumb;
  const hasHeading = Boolean(title || subTitle || tags || extra);
  const classes = [cls, props.className, breadcrumbDom && `${cls}-has-breadcrumb`, footer && `${cls}-has-footer`, rtl && `${cls}-rtl`, ghost && `${cls}-ghost`]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={classes}
      style={{
        position: 'relative',
        backgroundColor: ghost ? 'transparent' : token.colorBgContainer,
        paddingBlock: breadcrumbDom ? `${token.paddingSM}px 6px` : 6,
        paddingInline: 16,
        direction: rtl ? 'rtl' : undefined,
        ...(footer ? { paddingBlockEnd: 0 } : {}),
        ...props.style,
      }}
    >
      {breadcrumbDom}
      {hasHeading && (
        <div className={`${cls}-heading`} style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap' }}>
          <div className={`${cls}-heading-left`} style={{ display: 'flex', alignItems: 'center', marginBlock: token.marginXS / 2, overflow: 'hidden' }}>
            {backIcon && onBack && (
              <div className={`${cls}-back`} style={{ marginInlineEnd: token.margin, fontSize: 16, lineHeight: 1 }}>
                <div role="button" aria-label="back" onClick={(e) => onBack(e)} className={`${cls}-back-button`} style={{ fontSize: 16, color: token.colorTextHeading, cursor: 'pointer' }}>
                  {backIcon}
                </div>
              </div>
            )}
            {title && (
              <span
                className={`${cls}-heading-title`}
                title={typeof title === 'string' ? title : undefined}
                style={{ marginInlineEnd: token.marginSM, color: token.colorTextHeading, fontWeight: 600, fontSize: token.fontSizeHeading4, lineHeight: `${token.controlHeight}px`, ...ellipsis }}
              >
                {title}
              </span>
            )}
            {subTitle && (
              <span
                className={`${cls}-heading-sub-title`}
                title={typeof subTitle === 'string' ? subTitle : undefined}
                style={{ marginInlineEnd: token.marginSM, color: token.colorTextSecondary, fontSize: 14, lineHeight: token.lineHeight, ...ellipsis }}
              >
                {subTitle}
              </span>
            )}
            {tags && <span className={`${cls}-heading-tags`}>{tags}</span>}
          </div>
          {extra && (
            <span className={`${cls}-heading-extra`} style={{ marginBlock: token.marginXS / 2, whiteSpace: 'nowrap' }}>
              <Space>{extra}</Space>
            </span>
          )}
        </div>
      )}
      {children && (
        <div className={`${cls}-content`} style={{ paddingBlockStart: token.paddingSM }}>
          {children}
        </div>
      )}
      {footer && (
        <div className={`${cls}-footer`} style={{ marginBlockStart: token.margin }}>
          {footer}
        </div>
      )}
    </div>
  );
}
