import { useTranslate } from '@refinedev/core';
import { isImage } from './model';

/** A thumbnail for images (jpg, jpeg, png, gif, webp, bmp, svg), else a 'View Media' link. */
export function MediaPreview({ media }: { media: string | null }) {
  const t = useTranslate();
  if (!media) return <span>-</span>;
  if (isImage(media)) {
    return (
      <a href={media} target="_blank" rel="noopener noreferrer">
        <img src={media} alt="media" style={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 4 }} />
      </a>
    );
  }
  return (
    <a href={media} target="_blank" rel="noopener noreferrer">
      {t('message.viewMedia')}
    </a>
  );
}
