import { screen } from '@testing-library/react';

/*
 * Queries for the jsdom screen tests that find antd buttons by their text. `*ByRole` with a name computes
 * the accessible name of every candidate element, and each step of that calls jsdom's getComputedStyle,
 * which matches the element against every rule of antd's CSS-in-JS sheets (about 1,800 once a form and a
 * select have rendered): a second or more per query, many per test on a busy machine. Text lookups skip
 * the style computation. antd renders a button's label in its own element inside the button.
 */
const IN_BUTTON = { selector: 'button, button *' };

/** The button labelled `text`. */
export const button = (text: string | RegExp): HTMLButtonElement => screen.getByText(text, IN_BUTTON).closest('button')!;

/** The button labelled `text`, once it appears. */
export const findButton = async (text: string | RegExp): Promise<HTMLButtonElement> => (await screen.findByText(text, IN_BUTTON)).closest('button')!;
