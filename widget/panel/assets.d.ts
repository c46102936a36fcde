/** Stylesheets the entry imports for esbuild to bundle into `panel.css`. */
declare module '*.css';
