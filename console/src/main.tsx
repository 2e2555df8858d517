// The console's entry: its styles and the app in #app.
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

render(<App />, document.getElementById('app')!);
