import { loadingPhrase, LOADING_PHRASES } from './loading-phrases';
import { hasFailed, minutesTaken, rawDataFileName, rawDataJson, shownAs, typeLabel } from './report-format';

describe('report formats', () => {
  it('names the raw-data download after the title, with the title, content and raw data only', () => {
    expect(rawDataFileName('Acme initiation')).toBe('Acme initiation_response.json');
    const text = rawDataJson({ title: 'T', content: 'C', raw_data: { citations: [] } });
    expect(JSON.parse(text)).toEqual({ title: 'T', content: 'C', raw_data: { citations: [] } });
  });

  it('writes the time taken in minutes with two decimals', () => {
    expect(minutesTaken(90)).toBe('1.50 min');
    expect(minutesTaken(7)).toBe('0.12 min');
  });

  it('maps the report types as the spec shows them, anything else unknown', () => {
    expect(shownAs('credit_report')).toBe('credit_rating');
    expect(shownAs('open_research')).toBe('custom_research');
    expect(shownAs('weather_report')).toBe('unknown_report_type');
    expect(typeLabel('open_research')).toBe('Custom research');
  });

  it('treats only the string true as a failure flag', () => {
    expect(hasFailed({ error: 'true' })).toBe(true);
    expect(hasFailed({ error: null })).toBe(false);
    expect(hasFailed(undefined)).toBe(false);
  });
});

describe('the loading phrases', () => {
  it('advance every 2 s through the four phrases and stay on the last', () => {
    expect(LOADING_PHRASES).toHaveLength(4);
    expect(loadingPhrase(0)).toBe('Analyzing Your Inputs, Crafting Insights');
    expect(loadingPhrase(1999)).toBe('Analyzing Your Inputs, Crafting Insights');
    expect(loadingPhrase(2000)).toBe('Building Context, Generating Relevant Keywords');
    expect(loadingPhrase(4000)).toBe('Tailoring Recommendations, Adding Sources');
    expect(loadingPhrase(6000)).toBe('Applying Final Touches');
    expect(loadingPhrase(60_000)).toBe('Applying Final Touches');
  });
});
