// VigilImaging
