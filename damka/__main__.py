from damka.cli import main

raise SystemExit(main())
