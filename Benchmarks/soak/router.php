<?php
// The router of Benchmarks/soak.sh's `php -S` server: each file of a POST is logged as
// "FILENAME<TAB>BYTES<TAB>MD5" to the file named by SOAK_LOG (one append per request, under a
// lock: PHP_CLI_SERVER_WORKERS runs several workers), and the answer is 200 "ok".
// php -S answers every request with `Connection: close` and closes the connection after it.
if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    echo "ok\n";
    return true;
}
$lines = '';
foreach ($_FILES as $file) {
    foreach ((array)$file['error'] as $i => $error) {
        $name = is_array($file['name']) ? $file['name'][$i] : $file['name'];
        $tmp = is_array($file['tmp_name']) ? $file['tmp_name'][$i] : $file['tmp_name'];
        if ($error !== UPLOAD_ERR_OK) {
            http_response_code(400);
            echo "upload error $error\n";
            return true;
        }
        $lines .= $name . "\t" . filesize($tmp) . "\t" . md5_file($tmp) . "\n";
    }
}
file_put_contents(getenv('SOAK_LOG'), $lines, FILE_APPEND | LOCK_EX);
echo "ok\n";
return true;
