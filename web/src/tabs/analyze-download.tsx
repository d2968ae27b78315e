// The chart as a file: a PNG (twice the screen's pixels) or an SVG, written by vega from the view
// drawn (view.toImageURL), saved under the dataset's name by a link the page clicks itself.
import type { View } from 'vega';

type ImageType = 'png' | 'svg';

/** Saves the view drawn as `name`.png or .svg. */
async function save(view: View, type: ImageType, name: string): Promise<void> {
  const url = await view.toImageURL(type, type === 'png' ? 2 : 1);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.${type}`;
  document.body.append(link);
  link.click();
  link.remove();
}

/** The two download buttons, disabled until a chart is drawn. */
export function ChartDownloads({ view, name }: { view: View | null; name: string }) {
  const button = (type: ImageType) => (
    <button type="button" disabled={!view} onClick={() => view && void save(view, type, name)}>
      {type.toUpperCase()}
    </button>
  );
  return (
    <p class="downloads">
      Download the chart: {button('png')} {button('svg')}
    </p>
  );
}
